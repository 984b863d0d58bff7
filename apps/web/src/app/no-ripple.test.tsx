import Button from '@mui/material/Button';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';

// The ripple's start ran at every touch, before the tap's own work, on a slow phone (ADR 034).
describe('a tapped button', () => {
  it('starts no ripple: nothing renders at the touch', () => {
    renderWithProviders(<Button>המשך</Button>);
    const button = screen.getByRole('button', { name: 'המשך' });
    const before = button.innerHTML;

    fireEvent.mouseDown(button);
    fireEvent.touchStart(button, { touches: [{ clientX: 5, clientY: 5 }] });

    expect(button.innerHTML).toBe(before);
    expect(button.querySelector('.MuiTouchRipple-root')).toBeNull();
  });
});
