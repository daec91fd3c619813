/** Spanish: the reader's words in this language (the tables are described in ../phrases.ts). */
import type { LanguagePhrases } from "./language.ts";

export const es: LanguagePhrases = {
  collected: ["\\bha sido recogido (?:en|del) (?:el )?(?:punto|locker|amazon)"],
  sectionEnd: ["los clientes que compraron\\b"],
  shipTo: ["dirección de envío", "enviar a"],
  trackingLabel: ["n[úu]mero de seguimiento"],
  carrierStated: ["enviado con"],
  carrierLabel: ["transportista"],
  totalLabel: ["importe total", "total del pedido"],
  totalWord: ["total"],
  estimateLine: ["(?:nueva )?llegada", "llega", "llegará"],
  estimateLabelAtEnd: ["llegará", "fecha de entrega estimada"],
  quantity: ["cantidad"],
  prefix: {
    ordered: ["pedido realizado", "pedido"],
    shipped: ["enviado"],
    delivered: ["entregado"],
    canceled: [
      "cancelado",
      "productos? cancelados? correctamente",
      "el producto se ha cancelado correctamente",
      "los productos se han cancelado correctamente",
    ],
    delayed: ["retraso en la entrega", "retrasado", "actualización de entrega"],
  },
  opening: { "out-for-delivery": ["llega hoy", "en reparto"] },
  body: {
    canceled: ["\\bse ha cancelado correctamente\\b", "\\bse han cancelado\\b"],
    delivered: ["\\bse ha entregado\\b", "^tu paquete (?:se )?ha sido entregado\\b"],
    "out-for-delivery": ["\\bestá en reparto\\b"],
    delayed: ["\\bse ha retrasado\\b"],
    shipped: ["\\bva en camino\\b", "\\bestá en camino\\b"],
    ordered: ["\\bgracias por (?:tu|su) pedido\\b"],
  },
  otherSubject: [
    "contraseña de un solo uso",
    "reembolso",
    "devoluci[óo]n",
    "\\bevalúa",
    "\\bvalora tu",
  ],
  otherBody: ["contraseña de un solo uso"],
};
