import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../test/render';
import { TopBar } from './top-bar';

function renderTopBar(language: 'he' | 'en' = 'he') {
  return renderRoutes([{ path: '/', element: <TopBar /> }], { language });
}

describe('TopBar', () => {
  it('links the logo and brand to the home page', () => {
    renderTopBar();

    const banner = screen.getByRole('banner');
    const home = within(banner).getByRole('link', { name: 'מרפא' });
    expect(home).toHaveAttribute('href', '/');
    expect(within(home).getByRole('presentation')).toHaveAttribute('alt', '');
  });

  it('switches to English from the language menu', async () => {
    const { user } = renderTopBar();

    const button = screen.getByRole('button', { name: 'שפה' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    // The menu's code loads on first opening.
    const menu = await screen.findByRole('menu');
    const hebrew = within(menu).getByRole('menuitemradio', { name: 'עברית' });
    const english = within(menu).getByRole('menuitemradio', { name: 'English' });
    expect(hebrew).toHaveAttribute('aria-checked', 'true');
    expect(english).toHaveAttribute('aria-checked', 'false');
    expect(english).toHaveAttribute('lang', 'en');

    await user.click(english);

    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Marpe' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Language' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(localStorage.getItem('lang')).toBe('en');
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('is usable with the keyboard', async () => {
    const { user } = renderTopBar('en');

    screen.getByRole('button', { name: 'Language' }).focus();
    await user.keyboard('{Enter}');
    // The current language has focus (once the menu's code has loaded); move to Hebrew and choose it.
    const english = await screen.findByRole('menuitemradio', { name: 'English' });
    await waitFor(() => expect(english).toHaveFocus());
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitemradio', { name: 'עברית' })).toHaveFocus();
    await user.keyboard('{Enter}');

    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(screen.getByRole('button', { name: 'שפה' })).toHaveFocus();
  });
});
