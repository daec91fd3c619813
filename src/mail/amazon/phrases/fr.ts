/** French: the reader's words in this language (the tables are described in ../phrases.ts). */
import type { LanguagePhrases } from "./language.ts";

export const fr: LanguagePhrases = {
  collected: ["\\bcolis a été retiré"],
  sectionEnd: [
    "les clients ayant (?:acheté|consulté)",
    "(?:recommandations|recommandé pour vous)\\b",
    "nous espérons vous revoir\\b",
  ],
  shipTo: ["adresse de livraison", "livraison à"],
  trackingLabel: ["num[ée]ro de suivi"],
  carrierStated: ["expédiée? (?:par|avec)", "livrée? par"],
  carrierLabel: ["transporteur"],
  totalLabel: ["total de la commande", "montant total"],
  totalWord: ["total"],
  notTotal: ["sous-total", "avant taxes"],
  estimateLine: [
    "livraison prévue",
    "livraison",
    "nouvelle date de livraison",
    "arrivée",
    "arrive",
  ],
  estimateLabelAtEnd: ["livraison prévue(?: le)?"],
  quantity: ["quantité"],
  prefix: {
    ordered: ["commandée?s?"],
    shipped: ["expédiée?s?"],
    delivered: ["livrée?s?", "livraison"],
    canceled: ["annulée?s?"],
    delayed: ["retard(?: de livraison)?"],
  },
  opening: { "out-for-delivery": ["en cours de livraison"] },
  subject: {
    delivered: ["\\ba été livrée?"],
    shipped: ["\\ba été expédiée?"],
    ordered: ["\\bconfirmation de commande\\b"],
  },
  body: {
    canceled: ["\\ba été annulée?"],
    delivered: ["\\ba été livrée?", "\\bvotre colis a été livré"],
    "out-for-delivery": ["\\best en cours de livraison\\b"],
    shipped: ["\\ba été expédiée?"],
    ordered: ["\\bmerci pour votre commande\\b"],
  },
  otherSubject: [
    "mot de passe à usage unique",
    "rembourse",
    "\\bretour (?:de|du|reçu)",
    "\\bvotre retour\\b",
    "évaluez votre",
  ],
  otherBody: ["mot de passe à usage unique"],
};
