/** Time-zone validation is shared with the web app: src/shared/time-zone.ts. */
export { canonicalTimeZone, isValidTimeZone } from "../shared/time-zone.ts";
