/** Japanese: the reader's words in this language (the tables are described in ../phrases.ts). */
import type { LanguagePhrases } from "./language.ts";

export const ja: LanguagePhrases = {
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
};
