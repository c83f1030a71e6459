/** @peculiar/x509 as an entry point of the binary of its own (compile.sh), loaded by x509.ts at first use. */
export * from "@peculiar/x509";
