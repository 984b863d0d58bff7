import type { FormDraft } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * The largest body sent with `keepalive`: browsers refuse more than 64 KiB in flight across the
 * page's keepalive requests; some room is left for another.
 */
export const keepaliveBodyLimit = 48 * 1024;

const bodyOf = (token: string, draft: FormDraft) => ({ token, ...draft });

/**
 * Whether the save of `draft` may outlive the page (`keepalive`): a draft with a drawn signature
 * is usually too large, and goes as a plain request, which an app switch lets finish and a reload
 * may cut.
 */
export function canOutlivePage(token: string, draft: FormDraft): boolean {
  return (
    new TextEncoder().encode(JSON.stringify(bodyOf(token, draft))).length <= keepaliveBodyLimit
  );
}

/**
 * `POST /api/save-form-draft`: the link's unsent answers and step, kept on the server so that
 * nothing stays on the device; 404 when the link is not valid any more. `keepalive`: sent as the
 * page is hidden or closed, so the request survives it (only when canOutlivePage).
 */
export async function saveFormDraft(
  token: string,
  draft: FormDraft,
  { keepalive = false }: { keepalive?: boolean } = {},
): Promise<void> {
  await apiRequest('POST', '/save-form-draft', { body: bodyOf(token, draft), keepalive });
}
