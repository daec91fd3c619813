/** Expected delivery, coloured by how close it is (docs/screens.md): today, tomorrow, future, estimated. */
import type { Order } from "../../../src/contract/orders.ts";
import { useT } from "../../i18n/index.ts";
import { deliveryInfo } from "../../lib/delivery.ts";
import "../../styles/order-card.css";

export function DeliveryDate(props: {
  order: Pick<Order, "expecteddeliverydate" | "expecteddeliverydatetext">;
  now: Date;
  timeZone: string;
  label?: string;
}) {
  const t = useT();
  const info = deliveryInfo(props.order, props.now, props.timeZone);
  if (!info.text) return null;
  return (
    <span className={`delivery-date delivery-${info.tone}`}>
      {props.label
        ? `${props.label}: ${info.text}`
        : t("card.expectedDelivery", { date: info.text })}
    </span>
  );
}
