/**
 * Every language's words in the Amazon mail reader, one language in one place:
 * those that tell the kind of a mail (classify.ts joins them) and the labels of the fields read
 * in every language (totals, estimates, quantities: fields.ts, text-items.ts). To teach the
 * reader a language, add its block here (and its real samples to test/fixtures/mail/real/): the
 * sender and the mail's structure already make an order sender's mail an order mail in any
 * language (senders.ts `senderRole`); these words decide and refine its kind.
 *
 * Each entry is a regular-expression source matched case-insensitively with the Unicode flag,
 * on one line (capped) at a time; none has a nested unbounded quantifier.
 * - `prefix`: how a subject of Amazon's current templates starts, before ":" ("Shipped:",
 *   "Versandt:", "Pedido:", "注文済み:").
 * - `opening`: how a subject starts without a colon ("Out for delivery", "In Zustellung",
 *   "Consegna effettuata").
 * - `subject`: wording anywhere in an older subject ("has been dispatched", "wurde versandt").
 * - `body`: a sentence of the body's headline ("Your package has been delivered!",
 *   "Gracias por tu pedido"); bare status words never count (the 2025 progress bar prints them
 *   all in every mail).
 * - `otherSubject`, `otherBody`: mail about something else even when it names an order:
 *   one-time passwords, refunds and returns, review requests, Subscribe & Save, Hub pickups.
 * - `collected`: a parcel collected from a pickup point or locker (classify.ts: "delivered").
 * - `totalLabel`, `totalWord`, `notTotal`, `estimateLine`, `estimateLabelAtEnd`, `quantity`,
 *   `sectionEnd`, `shipTo`, `trackingLabel`, `carrierStated`, `carrierLabel`: the labels and
 *   headings the field finders look for (see each).
 */
import type { MailKind } from "./types.ts";

export type OrderKind = Exclude<MailKind, "other">;
type ByKind = Partial<Record<OrderKind, string[]>>;
export type LanguagePhrases = {
  prefix?: ByKind;
  opening?: ByKind;
  subject?: ByKind;
  body?: ByKind;
  otherSubject?: string[];
  otherBody?: string[];
  /** A parcel collected from a pickup point or locker: delivered (classify.ts). */
  collected?: string[];
  /** A total's label: strong ones first ("Order Total", "Gesamtbetrag"), then the bare word. */
  totalLabel?: string[];
  totalWord?: string[];
  /** Words that make a total line a subtotal or a total before tax. */
  notTotal?: string[];
  /** A line that starts with an estimate's label ("Zustellung: Montag", "Ankunft morgen"). */
  estimateLine?: string[];
  /** A label that ends its line, the date on the next ("La tua data di consegna prevista è:"). */
  estimateLabelAtEnd?: string[];
  /** The label of an item's quantity ("Menge: 2", "数量: 1"). */
  quantity?: string[];
  /** Headings that end the order section: recommendations, wish lists, the footer. */
  sectionEnd?: string[];
  /** The label before the ship-to address ("Ship to", "Lieferadresse"). */
  shipTo?: string[];
  /** The label before a tracking number, and how the mail names the carrier. */
  trackingLabel?: string[];
  carrierStated?: string[];
  carrierLabel?: string[];
};

export const PHRASES: Record<string, LanguagePhrases> = {
  en: {
    collected: [
      "(?<!\\bbe )\\bpicked up from (?:the |an? |your )?(?:amazon )?(?:hub|locker|counter|pickup)",
      "\\byou picked up your (?:package|parcel|order)\\b",
      "\\bhas been collected from\\b",
    ],
    sectionEnd: [
      "buy it again\\b",
      "customers (?:who|also)\\b",
      "frequently bought\\b",
      "recommended (?:for you|based on|items)\\b",
      "recommendations? (?:for|based)\\b",
      "top picks\\b",
      "keep shopping\\b",
      "deals (?:related|for you|recommended|inspired)\\b",
      "inspired by\\b",
      "related to (?:items|your)\\b",
      "(?:you|we think you) (?:might|may) (?:also )?(?:like|be interested)\\b",
      "more items to (?:consider|explore)\\b",
      "sponsored\\b",
      "(?:your )?wish ?list\\b",
      "we hope to see you again soon\\b",
      "unless otherwise noted\\b",
      "by placing your order\\b",
      "this e-?mail was sent from\\b",
      "(?:©|\\(c\\)) ?\\d{4}",
    ],
    shipTo: [
      "ship(?:ping)? to",
      "deliver(?:ing)? to",
      "your order (?:will be|was) sent to",
      "sent to",
      "shipping address",
      "delivery address",
    ],
    trackingLabel: ["tracking (?:number|no\\.?|id|#|code)"],
    carrierStated: [
      "being sent by",
      "being shipped (?:with|by|via)",
      "shipped (?:with|via|by)",
      "sent with",
      "delivered by",
      "delivery by",
    ],
    carrierLabel: ["carrier"],
    totalLabel: ["order total", "grand total", "shipment total", "total for this shipment"],
    totalWord: ["total"],
    notTotal: ["subtotal", "sub-total", "before tax"],
    estimateLabelAtEnd: [
      "will arrive",
      "estimated delivery(?: date)?(?: is)?",
      "expected delivery(?: date)?(?: is)?",
      "now arriving",
      "arriving",
    ],
    quantity: ["quantity", "qty"],
    prefix: {
      ordered: ["ordered"],
      shipped: ["shipped", "dispatched"],
      delivered: ["delivered"],
      canceled: ["cancell?ed", "cancellation"],
      delayed: ["delivery update", "delayed", "running late"],
    },
    opening: { "out-for-delivery": ["out for delivery", "arriving today"] },
    subject: {
      canceled: [
        "\\b(?:has|have) been cancell?ed\\b",
        "\\bwas cancell?ed\\b",
        "\\bcancellation\\b",
        "\\bitem\\(s\\) cancell?ed\\b",
        "\\border cancell?ed\\b",
      ],
      delivered: ["\\b(?:has|have) been delivered\\b", "\\bwas delivered\\b", "\\bhas arrived\\b"],
      "out-for-delivery": [
        "\\bout for delivery\\b",
        "\\barriving today\\b",
        "\\bwill be delivered today\\b",
      ],
      delayed: ["\\bdelivery update\\b", "\\bdelayed\\b", "\\brunning late\\b"],
      shipped: [
        "\\bhas shipped\\b",
        "\\bhave shipped\\b",
        "\\bhas been (?:shipped|dispatched)\\b",
        "\\bwas shipped\\b",
        "\\bis on the way\\b",
      ],
      ordered: [
        "\\border confirmation\\b",
        "\\byour order has been placed\\b",
        "\\bthanks for your order\\b",
        "\\bthank you for your order\\b",
        "\\byour amazon[\\w.]* order of\\b",
      ],
    },
    body: {
      canceled: [
        "\\b(?:has|have) been (?:successfully )?cancell?ed\\b",
        "\\bwe(?:'ve| have) cancell?ed\\b",
        "^(?:order|items?|item\\(s\\)) cancell?ed\\b",
        "\\bcancellation (?:of|confirmation)\\b",
        "\\bsuccessfully cancell?ed\\b",
      ],
      delivered: [
        "\\b(?:has|have) been delivered\\b",
        "\\bwas delivered\\b",
        "\\b(?:package|parcel|order|item) (?:has )?arrived\\b",
        "^delivered(?: today| yesterday| on\\b|[:!])",
      ],
      "out-for-delivery": [
        "\\bis out for delivery\\b",
        "\\bwill be delivered today\\b",
        "\\bout for delivery today\\b",
      ],
      delayed: [
        "\\brunning late\\b",
        "\\b(?:has been|is|was) delayed\\b",
        "\\bdelivery (?:is )?delayed\\b",
        "\\bsorry for the delay\\b",
      ],
      shipped: [
        "\\b(?:has|have) (?:been )?(?:shipped|dispatched)\\b",
        "\\bwe(?:'ve| have) dispatched\\b",
        "\\bwas shipped\\b",
        "^(?:dispatch|shipping|shipment) confirmation\\b",
        "^amazon shipping confirmation\\b",
        "\\bpackage is on the way\\b",
      ],
      ordered: [
        "^order confirmation\\b",
        "\\bthanks for your order\\b",
        "\\bthank you for your order\\b",
        "\\bthank you for shopping with us\\b",
        "\\byour order has been placed\\b",
      ],
    },
    otherSubject: [
      "one[- ]time (?:password|passcode|code)",
      "verification code",
      "security code",
      "\\bOTP\\b",
      "sign[- ]in",
      "password assistance",
      "ready for pick ?up",
      "to pick ?up",
      "pick ?up (?:code|your|at|from)",
      "pickup",
      "hub locker",
      "\\blocker\\b",
      "apartment hub",
      "\\brefund",
      "\\breturn (?:request|label|received|started|confirmation|drop)",
      "\\breview (?:your|this)",
      "\\brate your",
      "how (?:was|did) your",
      "price change",
      "subscribe (?:&|and) save",
      "your (?:deal|offer|coupon)",
      "gift card",
      "\\bpayment (?:declined|failed|method)",
      "\\binvoice\\b",
    ],
    otherBody: [
      "your one[- ]time password is",
      "one[- ]time password is required",
      "your verification code is",
      "ready for pick ?up",
      "your pickup code is",
      "^pickup code$",
      "^pick up until",
      "refund (?:was|has been) issued",
      "we(?:'ve| have) issued your refund",
      "your refund",
      "^return summary$",
      "your (?:next )?subscribe (?:&|and) save",
    ],
  },

  de: {
    collected: [
      "(?:packstation|locker|abholstation|abholpunkt|paketshop|counter)\\b.{0,60}\\babgeholt\\b",
    ],
    sectionEnd: [
      "kunden, die\\b",
      "(?:empfehlungen|unsere empfehlungen)\\b",
      "wir hoffen, (?:sie|dich) bald wieder",
    ],
    shipTo: ["lieferadresse", "lieferung an", "versand an"],
    trackingLabel: ["sendungsnummer", "trackingnummer", "sendungsverfolgungsnummer"],
    carrierStated: ["versand (?:mit|durch)", "versandt mit", "zustellung durch"],
    carrierLabel: ["zusteller", "versanddienstleister"],
    totalLabel: ["gesamtbetrag", "gesamtsumme", "endbetrag", "summe"],
    totalWord: ["gesamt"],
    notTotal: ["zwischensumme"],
    estimateLine: [
      "(?:neue |voraussichtliche )?zustellung(?!\\s+durch)",
      "(?:voraussichtliche )?lieferung(?!\\s+durch)",
      "voraussichtlich",
      "ankunft",
    ],
    estimateLabelAtEnd: ["voraussichtliche (?:lieferung|zustellung)", "lieferung"],
    quantity: ["menge", "anzahl"],
    prefix: {
      ordered: ["bestellt"],
      shipped: ["versandt", "versendet", "verschickt"],
      delivered: ["zugestellt", "geliefert"],
      canceled: ["storniert"],
      delayed: ["lieferverzögerung", "verspätet"],
    },
    opening: {
      "out-for-delivery": [
        "wird heute zugestellt",
        "heute zugestellt",
        "zustellung heute",
        "in zustellung",
      ],
    },
    subject: {
      canceled: ["\\bstorniert\\b"],
      delivered: ["\\bwurde zugestellt\\b"],
      "out-for-delivery": ["\\bwird heute zugestellt\\b"],
      delayed: ["\\bverspätet\\b", "\\bverzögert\\b"],
      shipped: ["\\bwurde versandt\\b"],
      ordered: ["\\bbestellbestätigung\\b"],
    },
    body: {
      canceled: ["\\bwurde storniert\\b"],
      delivered: ["\\bwurde zugestellt\\b"],
      "out-for-delivery": [
        "\\bwird heute zugestellt\\b",
        "\\bheute in zustellung\\b",
        "\\bbefindet sich in zustellung\\b",
      ],
      delayed: ["\\bverspätet sich\\b", "\\bverzögert sich\\b"],
      shipped: ["\\bwurde versandt\\b", "\\bwurde versendet\\b", "^versandbestätigung\\b"],
      ordered: [
        "^bestellbestätigung\\b",
        "\\bvielen dank für ihre bestellung\\b",
        "\\bvielen dank für deine bestellung\\b",
      ],
    },
    otherSubject: [
      "einmal-?passwort",
      "erstattung",
      "\\bbewerten sie",
      "\\bbewerte deinen",
      "\\brücksendung",
    ],
    otherBody: ["einmal-?passwort"],
  },

  fr: {
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
  },

  it: {
    collected: ["è stato ritirato (?:presso|al punto|nel locker|in un)"],
    sectionEnd: [
      "articoli della lista\\b",
      "(?:consigliati|raccomandati) per te\\b",
      "i clienti che hanno acquistato\\b",
      "a presto[,!.]?$",
    ],
    shipTo: ["l'ordine è stato spedito a", "indirizzo di (?:spedizione|consegna)", "spedito a"],
    trackingLabel: ["numero di (?:tracciabilit[aà]|tracking|spedizione)"],
    carrierStated: ["spedito con il corriere", "con il corriere", "consegna con"],
    carrierLabel: ["corriere", "spedizioniere"],
    totalLabel: ["totale ordine", "totale dell'ordine", "totale iva inclusa"],
    totalWord: ["totale"],
    notTotal: ["parziale"],
    estimateLine: ["arriverà", "consegna prevista"],
    estimateLabelAtEnd: ["arriverà", "consegna prevista", "data di consegna prevista è"],
    quantity: ["quantità"],
    prefix: {
      ordered: ["ordinato"],
      shipped: ["spedito"],
      delivered: ["consegnato"],
      canceled: ["annullato"],
      delayed: ["aggiornamento (?:sulla|della) consegna", "in ritardo"],
    },
    opening: {
      "out-for-delivery": ["in consegna(?: oggi)?"],
      delivered: ["consegna effettuata"],
    },
    subject: {
      canceled: ["\\bannullat[oa]\\b"],
      delivered: ["\\bconsegna effettuata\\b", "è stato consegnato\\b"],
      "out-for-delivery": ["\\bin consegna oggi\\b"],
      delayed: ["\\bin ritardo\\b"],
      shipped: ["è stato spedito\\b", "\\bsono stati spediti\\b"],
      ordered: ["\\bconferma (?:d'|dell')ordine\\b"],
    },
    body: {
      canceled: ["è stato annullato\\b"],
      delivered: ["è stato consegnato\\b", "^consegna effettuata\\b"],
      "out-for-delivery": ["\\bin consegna oggi\\b"],
      delayed: ["è in ritardo\\b"],
      shipped: ["è stato spedito\\b", "^conferma spedizione\\b"],
      ordered: ["^conferma (?:d'|dell')ordine\\b", "\\bgrazie per (?:il tuo )?ordine\\b"],
    },
    otherSubject: ["password monouso", "rimborso", "\\bvaluta il tuo", "\\breso\\b"],
    otherBody: ["password monouso"],
  },

  es: {
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
  },

  pt: { prefix: { ordered: ["pedido efetuado"] } },

  nl: {
    prefix: { ordered: ["besteld"], shipped: ["verzonden"], delivered: ["bezorgd"] },
  },

  ja: {
    collected: ["受け取りました"],
    trackingLabel: ["お問い合わせ伝票番号", "追跡番号", "伝票番号"],
    carrierLabel: ["配送業者", "配送会社"],
    totalLabel: ["この注文の合計", "注文合計", "ご請求額", "お支払い金額"],
    totalWord: ["合計"],
    notTotal: ["税抜", "小計"],
    estimateLine: ["(?:新しい)?お届け予定日?"],
    quantity: ["数量", "個数"],
    prefix: {
      ordered: ["注文済み", "注文確定"],
      shipped: ["発送済み", "発送しました"],
      delivered: ["配達完了", "配達済み"],
      canceled: ["キャンセル済み", "キャンセル"],
      delayed: ["配送の遅延", "お届けの遅延"],
    },
    opening: { "out-for-delivery": ["配達中", "本日お届け"] },
    subject: {
      shipped: ["発送しました", "ご注文の発送"],
      ordered: ["ご注文の確認", "でのご注文"],
    },
    body: {
      delivered: ["配達しました"],
      shipped: ["を発送しました", "発送いたしました", "^amazon\\.co\\.jp ご注文の発送$"],
      ordered: [
        "ご注文ありがとうございます",
        "ご注文いただきありがとうございます",
        "ご注文内容は以下のとおりです",
      ],
    },
    otherSubject: ["ワンタイムパスワード", "返金", "返品", "レビュー"],
    otherBody: ["ワンタイムパスワード"],
  },
};

/** The kinds in the order classify.ts tries them: the most specific news first. */
export const KIND_ORDER: OrderKind[] = [
  "canceled",
  "delivered",
  "out-for-delivery",
  "delayed",
  "shipped",
  "ordered",
];

/** Every language's entries of one table and kind, in one alternation. */
export function joined(
  table: "prefix" | "opening" | "subject" | "body",
  kind: OrderKind,
): string | null {
  const all = Object.values(PHRASES).flatMap((p) => p[table]?.[kind] ?? []);
  return all.length > 0 ? all.join("|") : null;
}

type ListKey =
  | "collected"
  | "otherSubject"
  | "otherBody"
  | "totalLabel"
  | "totalWord"
  | "notTotal"
  | "estimateLine"
  | "estimateLabelAtEnd"
  | "quantity"
  | "sectionEnd"
  | "shipTo"
  | "trackingLabel"
  | "carrierStated"
  | "carrierLabel";

/** Every language's entries of a list (labels, "about something else"), in one alternation. */
export function joinedList(table: ListKey): string {
  return Object.values(PHRASES)
    .flatMap((p) => p[table] ?? [])
    .join("|");
}
