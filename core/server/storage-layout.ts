/**
 * The one place that picks how the etcd backend names keys and encodes values for a configuration (--etcd-prefix
 * stays the backend's; --storage-media-type picks the encoding). For now kubun's own keys and JSON text.
 */
import type { ServerConfig } from "../config/mod.ts";
import { IDENTITY_LAYOUT, JSON_TEXT_CODEC, type KeyLayout, type ValueCodec } from "../storage/layout.ts";

export function storageLayoutFor(_config: ServerConfig): { layout: KeyLayout; codec: ValueCodec } {
  return { layout: IDENTITY_LAYOUT, codec: JSON_TEXT_CODEC };
}
