/** Calling webhooks (admission, conversion): where a clientConfig points and one JSON POST to it over https. */
export { type CallTarget, type ClientConfig, resolveTarget, type ServiceReference } from "./endpoint.ts";
export { type ClientCredentials, PostFailure, postJson } from "./https-post.ts";
