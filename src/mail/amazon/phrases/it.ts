/** Italian: the reader's words in this language (the tables are described in ../phrases.ts). */
import type { LanguagePhrases } from "./language.ts";

export const it: LanguagePhrases = {
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
};
