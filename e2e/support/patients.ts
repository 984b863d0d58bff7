import { withIdCheckDigit, type DevMessage } from '@marpe/shared';

import { suiteServer } from './suite-server';

const baseUrl = suiteServer().baseUrl;

/** A valid ID number: the 8-digit `base` and the check digit that makes it pass. */
export const withCheckDigit = withIdCheckDigit;

/** What the demo SMS provider sent to `phone`, newest first (GET /api/dev/messages). */
export async function messagesTo(phone: string): Promise<DevMessage[]> {
  const response = await fetch(`${baseUrl}/api/dev/messages`);
  if (response.status !== 200) throw new Error(`/api/dev/messages answered ${response.status}`);
  return ((await response.json()) as DevMessage[]).filter((message) => message.to === phone);
}

/** Waits until `phone` has received at least `count` messages; answers them, newest first. */
export async function waitForMessages(phone: string, count: number): Promise<DevMessage[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const messages = await messagesTo(phone);
    if (messages.length >= count) return messages;
    if (Date.now() > deadline) throw new Error(`no new SMS to ${phone}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The code of the SMS sent after `before` messages to that phone (the WebOTP line ends it). */
export async function nextCode(phone: string, before: number): Promise<string> {
  const [newest] = await waitForMessages(phone, before + 1);
  const code = /#(\d{6})\s*$/.exec(newest?.body ?? '')?.[1];
  if (!code) throw new Error(`no code in ${JSON.stringify(newest?.body)}`);
  return code;
}
