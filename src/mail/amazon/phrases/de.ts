/** German: the reader's words in this language (the tables are described in ../phrases.ts). */
import type { LanguagePhrases } from "./language.ts";

export const de: LanguagePhrases = {
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
};
