import type { InputData } from '@marpe/shared';
import { apiRequest, type ResponseSchema } from '../../../lib/api-client';

/**
 * The one answer that means the form was received. Checked by hand rather than with the shared
 * zod schema, which would bring zod into the form page for a single field.
 */
const submitted: ResponseSchema<{ status: 'ok' }> = {
  parse(data) {
    if ((data as { status?: unknown } | undefined)?.status !== 'ok') {
      throw new Error('expected { status: "ok" }');
    }
    return { status: 'ok' };
  },
};

/**
 * `POST /api/submit` (docs/product/intake-form.md#calls): the answer must be `{ status: 'ok' }`
 * (anything else rejects); 404 when the link is not valid any more.
 */
export async function submitForm(token: string, inputData: InputData): Promise<void> {
  await apiRequest('POST', '/submit', { body: { token, inputData }, schema: submitted });
}
