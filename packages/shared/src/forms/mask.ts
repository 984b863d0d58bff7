/**
 * Input masks (docs/forms.md#masks): `#` a digit, `@` a letter, `*` a letter or digit; any other
 * mask character is a literal that is inserted as the person types.
 */

const slotTests: Record<string, RegExp> = {
  '#': /^[0-9]$/,
  '@': /^\p{L}$/u,
  '*': /^[\p{L}0-9]$/u,
};

function slotTest(maskChar: string): RegExp | undefined {
  return slotTests[maskChar];
}

/**
 * Formats `value` as typed: each character either fills the next slot (characters that do not fit
 * the slot are dropped), or matches the literal at that point; literals are inserted before the
 * next typed character, never after the last one (`##/##` on `123` → `12/3`, on `12` → `12`).
 * Stops when the mask is full. Idempotent.
 */
export function applyMask(mask: string, value: string): string {
  const maskChars = [...mask];
  const valueChars = [...value];
  let out = '';
  let m = 0;
  let v = 0;
  while (m < maskChars.length && v < valueChars.length) {
    const maskChar = maskChars[m] as string;
    const char = valueChars[v] as string;
    const test = slotTest(maskChar);
    if (test) {
      if (test.test(char)) {
        out += char;
        m++;
      }
      v++;
    } else {
      out += maskChar;
      if (char === maskChar) v++;
      m++;
    }
  }
  return out;
}

/** Whether `value` fills the whole mask: same length, every slot fitting, every literal in place. */
export function matchesMask(mask: string, value: string): boolean {
  const maskChars = [...mask];
  const valueChars = [...value];
  if (maskChars.length !== valueChars.length) return false;
  return maskChars.every((maskChar, i) => {
    const char = valueChars[i] as string;
    const test = slotTest(maskChar);
    return test ? test.test(char) : char === maskChar;
  });
}
