/** The field manager of a write that names none (kube's managerOrUserAgent): the User-Agent's program name. */
const MAX_FIELD_MANAGER_LENGTH = 128;

export function fieldManagerFromUserAgent(userAgent: string | null | undefined): string {
  return (userAgent ?? "").split("/")[0].slice(0, MAX_FIELD_MANAGER_LENGTH);
}
