import { act, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { handOnTyped, typedBeforeApp } from './typed-before-app';

/** A form as the app renders it: controlled fields, and what React holds shown beside them. */
function Form({ label = 'Email' }: { label?: string }) {
  const [email, setEmail] = useState('dana@example.com');
  const [count, setCount] = useState('1');
  return (
    <form>
      <label>
        {label}
        <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <select name="count" value={count} onChange={(e) => setCount(e.target.value)}>
        <option value="1">1</option>
        <option value="3">3</option>
      </select>
      <input type="checkbox" defaultChecked={false} />
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

afterEach(() => {
  container.innerHTML = '';
});

describe('what the patient typed before the app', () => {
  it('finds only the fields changed from how the page was rendered', () => {
    const { email, count } = serverHtml();
    expect(typedBeforeApp(container)).toEqual([]);
    email.value = 'typed@example.com';
    count.value = '3';
    expect(typedBeforeApp(container)).toEqual([
      { field: email, value: 'typed@example.com' },
      { field: count, value: '3' },
    ]);
  });

  it('reaches the state of the hydrated page', async () => {
    const { email, count } = serverHtml();
    email.value = 'typed@example.com';
    count.value = '3';
    let root!: ReturnType<typeof hydrateRoot>;
    await act(async () => {
      root = hydrateRoot(container, <Form />);
    });
    const typed = typedBeforeApp(container);
    // Hydrated, React still holds what the page was rendered with.
    expect(container.querySelector('output')?.textContent).toBe('dana@example.com × 1');
    await act(async () => handOnTyped(typed, container));
    expect(container.querySelector('output')?.textContent).toBe('typed@example.com × 3');
    expect(email.value).toBe('typed@example.com');
    act(() => root.unmount());
  });

  it('reaches the fields of the same name in a page rendered afresh', async () => {
    const { email } = serverHtml();
    email.value = 'typed@example.com';
    const typed = typedBeforeApp(container);
    const root = createRoot(container);
    await act(async () => root.render(<Form label="Receipt email" />));
    await act(async () => handOnTyped(typed, container));
    expect(container.querySelector('output')?.textContent).toBe('typed@example.com × 1');
    act(() => root.unmount());
  });
});
