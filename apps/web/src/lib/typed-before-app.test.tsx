import { act, useEffect, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as TextFieldModule from './text-field';
import type * as TypedModule from './typed-before-app';

// Fresh per test, with the field that asks it: the module remembers whether the app has taken over.
let typed: typeof TypedModule;
let TextField: typeof TextFieldModule.TextField;
beforeEach(async () => {
  vi.resetModules();
  typed = await import('./typed-before-app');
  ({ TextField } = await import('./text-field'));
});

/**
 * A form as the app renders it: controlled fields, and what React holds shown beside them.
 * `draft`: set by the form's own first effect, as the intake form resumes its stored draft.
 */
function Form({ label = 'Email', draft }: { label?: string; draft?: string }) {
  const [email, setEmail] = useState('dana@example.com');
  const [count, setCount] = useState('1');
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- as the intake form resumes its draft
    if (draft) setEmail(draft);
  }, [draft]);
  return (
    <form>
      <TextField
        name="email"
        type="email"
        label={label}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <TextField
        select
        name="count"
        label="Payments"
        value={count}
        onChange={(event) => setCount(event.target.value)}
      >
        <option value="1">1</option>
        <option value="3">3</option>
      </TextField>
      <output>{`${email} × ${count}`}</output>
    </form>
  );
}

const container = document.createElement('div');
document.body.append(container);

function serverHtml() {
  container.innerHTML = renderToString(<Form />);
  const email = container.querySelector<HTMLInputElement>('input[name="email"]');
  const count = container.querySelector<HTMLSelectElement>('select');
  if (!email || !count) throw new Error('the form has no fields');
  return { email, count };
}

const shown = () => container.querySelector('output')?.textContent;

afterEach(() => {
  container.innerHTML = '';
});

describe('what the patient typed before the app', () => {
  it('reaches the state of the hydrated page, through the fields’ own change handlers', async () => {
    const { email, count } = serverHtml();
    email.value = 'typed@example.com';
    count.value = '3';
    let root!: ReturnType<typeof hydrateRoot>;
    await act(async () => {
      root = hydrateRoot(container, <Form />);
    });
    // Hydrated, React still holds what the page was rendered with, until the app has taken over.
    expect(shown()).toBe('dana@example.com × 1');
    await act(async () => typed.appHasTakenOver());
    expect(shown()).toBe('typed@example.com × 3');
    expect(email.value).toBe('typed@example.com');
    expect(count.value).toBe('3');
    act(() => root.unmount());
  });

  it('leaves a hydrated page as it was rendered when nothing was typed', async () => {
    serverHtml();
    let root!: ReturnType<typeof hydrateRoot>;
    await act(async () => {
      root = hydrateRoot(container, <Form />);
    });
    await act(async () => typed.appHasTakenOver());
    expect(shown()).toBe('dana@example.com × 1');
    act(() => root.unmount());
  });

  it('reaches the fields of the same name in a page rendered afresh', async () => {
    const { email } = serverHtml();
    email.value = 'typed@example.com';
    typed.keepTypedBeforeApp(container);
    const root = createRoot(container);
    await act(async () => root.render(<Form label="Receipt email" />));
    await act(async () => typed.appHasTakenOver());
    expect(shown()).toBe('typed@example.com × 1');
    expect(container.querySelector<HTMLInputElement>('input[name="email"]')?.value).toBe(
      'typed@example.com',
    );
    act(() => root.unmount());
  });

  it('is forgotten once the app has taken over: a field that appears later starts as the app says', async () => {
    const { email } = serverHtml();
    email.value = 'typed@example.com';
    typed.keepTypedBeforeApp(container);
    typed.appHasTakenOver();
    const root = createRoot(container);
    await act(async () => root.render(<Form />));
    await act(async () => typed.appHasTakenOver());
    expect(shown()).toBe('dana@example.com × 1');
    act(() => root.unmount());
  });

  it('wins over what the form sets in its own first effects (a draft it resumes)', async () => {
    const { email } = serverHtml();
    email.value = 'typed@example.com';
    let root!: ReturnType<typeof hydrateRoot>;
    await act(async () => {
      root = hydrateRoot(container, <Form draft="draft@example.com" />);
      // As main.tsx: after the first commit's effects.
      await Promise.resolve();
    });
    await act(async () => typed.appHasTakenOver());
    expect(shown()).toBe('typed@example.com × 1');
    act(() => root.unmount());
  });
});
