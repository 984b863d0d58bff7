import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { lazyOnOpen } from './lazy-on-open';

function Message({ open }: { open: boolean }) {
  return open ? <p>opened</p> : <p>closed</p>;
}

describe('lazyOnOpen', () => {
  it('renders nothing until first opened, and fetches its code once the page is idle', async () => {
    const load = vi.fn(() => Promise.resolve(Message));
    const Lazy = lazyOnOpen(load);
    render(<Lazy open={false} />);

    expect(screen.queryByText(/opened|closed/)).toBeNull();
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/opened|closed/)).toBeNull();
  });

  it('once its code is in, the opening tap renders it in that same update', async () => {
    const load = vi.fn(() => Promise.resolve(Message));
    const Lazy = lazyOnOpen(load);
    const { rerender } = render(<Lazy open={false} />);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await act(async () => {});

    // No await: React's lazy would suspend here, and reveal it up to 300 ms later.
    act(() => rerender(<Lazy open />));
    expect(screen.getByText('opened')).toBeInTheDocument();

    // Mounted from then on, so that closing keeps its transition.
    act(() => rerender(<Lazy open={false} />));
    expect(screen.getByText('closed')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('opened before its code is in: shows once it arrives', async () => {
    let arrive: (component: typeof Message) => void = () => {};
    const load = vi.fn(() => new Promise<typeof Message>((resolve) => (arrive = resolve)));
    const Lazy = lazyOnOpen(load);
    render(<Lazy open />);

    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('opened')).toBeNull();
    await act(async () => arrive(Message));
    expect(screen.getByText('opened')).toBeInTheDocument();
  });

  it('code that could not load is asked for again at the next opening', async () => {
    const load = vi
      .fn<() => Promise<typeof Message>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(Message);
    const Lazy = lazyOnOpen(load);
    const { unmount } = render(<Lazy open />);
    await act(async () => {});
    expect(screen.queryByText('opened')).toBeNull();
    unmount();

    render(<Lazy open />);
    expect(await screen.findByText('opened')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
