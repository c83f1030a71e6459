/** kube's protobuf media types. */
export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
/** Content-Type of a watch answered in protobuf: length-prefixed WatchEvent frames. */
export const PROTOBUF_WATCH_MEDIA_TYPE = "application/vnd.kubernetes.protobuf;stream=watch";
