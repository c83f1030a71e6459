export { WatchBroker } from "./broker.ts";
export type { WatchBrokerOptions } from "./broker.ts";
export { WatchOverflowError } from "./watch.ts";
export type { Watch, WatchMessage } from "./watch.ts";
