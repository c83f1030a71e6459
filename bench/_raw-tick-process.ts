/**
 * rawTickWriteBytes in a process of its own, so that its kernel write_bytes are its alone while another baseline
 * runs in the bench process in the same window. Prints the bytes. Arguments: windowMs rows rowBytes periodMs pageSize.
 */
import { rawTickWriteBytes } from "./_raw-sqlite.ts";

const [windowMs, rows, rowBytes, periodMs, pageSize] = process.argv.slice(2).map(Number) as [number, number, number, number, number];
console.log(await rawTickWriteBytes(windowMs, { rows, rowBytes, periodMs, pageSize }));
