// How a failed call to another service (Meta's Graph API, the Tax Authority) is described in logs
// and errors: WhatsApp sending, the WhatsApp connection and SHAAM all use it.

/** ` (Graph error <code>)` from Meta's error body, or '' when it has none. */
export async function graphErrorCode(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown } };
    const code = body.error?.code;
    return typeof code === 'number' ? ` (Graph error ${code})` : '';
  } catch {
    return '';
  }
}

export function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  if (error.name === 'TimeoutError') return 'no answer in time';
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : error.name;
}
