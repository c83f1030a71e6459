/** The server's logger: kube's `-v` verbosity and `--logging-format` text|json. */
export { configureLogging, resetLogging, errorText, LOG_FORMATS, type LogFormat, type Logger, logger, type LogValues, validateLogFormat } from "./logger.ts";
