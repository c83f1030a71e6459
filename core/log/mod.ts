/** The server's logger: kube's `-v` verbosity and `--logging-format` text|json. */
export {
  configureLogging,
  errorText,
  LOG_FORMATS,
  type LogFormat,
  type Logger,
  logger,
  type LogValues,
  resetLogging,
  validateLogFormat,
} from "./logger.ts";
export { localZoneIsUtc } from "./local-zone.ts";
