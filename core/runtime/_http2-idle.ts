/**
 * Go's http2 server closes a connection that has no open stream for the server's IdleTimeout, counted from the
 * connection's start and again each time its last stream ends (serverConn.serve's idleTimer, onIdleTimer): it sends
 * GOAWAY and closes the connection shortly after (goAwayTimeout, 1 s). kube's secure server gives its http2.Server
 * the same 90 s IdleTimeout as its HTTP/1.1 connections, so no HTTP/2 connection stays open forever without a request.
 */
import type { Http2Server, ServerHttp2Session, ServerHttp2Stream } from "node:http2";

/** Go's goAwayTimeout: how long a connection told GOAWAY has to close on its own before it is closed. */
const GOAWAY_GRACE_MS = 1000;

export function closeIdleSessions(server: Http2Server, idleTimeoutMs: number): void {
  server.on("session", (session: ServerHttp2Session) => closeWhenIdle(session, idleTimeoutMs));
}

function closeWhenIdle(session: ServerHttp2Session, idleTimeoutMs: number): void {
  let open = 0;
  const goAway = () => {
    session.close();
    setTimeout(() => session.destroy(), GOAWAY_GRACE_MS).unref?.();
  };
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(goAway, idleTimeoutMs);
  session.on("stream", (stream: ServerHttp2Stream) => {
    open++;
    clearTimeout(timer);
    stream.once("close", () => {
      if (--open === 0 && !session.closed && !session.destroyed) timer = setTimeout(goAway, idleTimeoutMs);
    });
  });
  session.once("close", () => clearTimeout(timer));
}
