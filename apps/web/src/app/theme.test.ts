import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { createAppTheme, successGreen, textCyan, textCyanOnTint, waitingAmber } from './theme';

describe('theme colours', () => {
  const theme = createAppTheme('rtl');

  it('keeps the brand colours', () => {
    expect(theme.palette.primary.main).toBe('#00BCD4');
    expect(theme.palette.secondary.main).toBe('#B2EBF2');
  });

  it('meets WCAG AA (4.5:1) wherever it puts text', () => {
    const { primary, secondary, background, text } = theme.palette;
    expect(getContrastRatio(textCyan, background.paper)).toBeGreaterThanOrEqual(4.5);
    expect(getContrastRatio(primary.contrastText, primary.main)).toBeGreaterThanOrEqual(4.5);
    expect(getContrastRatio(primary.contrastText, primary.dark)).toBeGreaterThanOrEqual(4.5);
    expect(getContrastRatio(secondary.contrastText, secondary.main)).toBeGreaterThanOrEqual(4.5);
    expect(getContrastRatio(text.secondary, background.paper)).toBeGreaterThanOrEqual(4.5);
  });

  it('has one colour for success and one for waiting, AA as text on white and under white text', () => {
    const { success, warning, background } = theme.palette;
    expect(success.main).toBe(successGreen);
    expect(warning.main).toBe(waitingAmber);
    for (const colour of [success.main, success.dark, warning.main, warning.dark]) {
      expect(getContrastRatio(colour, background.paper), colour).toBeGreaterThanOrEqual(4.5);
    }
    expect(getContrastRatio(success.contrastText, success.main)).toBeGreaterThanOrEqual(4.5);
    expect(getContrastRatio(warning.contrastText, warning.main)).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps hovered text buttons at 4.5:1 on their 6 % cyan tint', () => {
    const tint = (channel: number) => Math.round(255 * 0.94 + channel * 0.06);
    const hoverBg = `rgb(${tint(0x00)}, ${tint(0x83)}, ${tint(0x8f)})`;
    expect(getContrastRatio(textCyan, hoverBg)).toBeLessThan(4.5);
    expect(getContrastRatio(textCyanOnTint, hoverBg)).toBeGreaterThanOrEqual(4.5);
  });

  it('darkens a pressed control in CSS alone, a disabled-looking one excepted', () => {
    const root = theme.components?.MuiButtonBase?.styleOverrides?.root as Record<string, unknown>;
    expect(root['&:active:not(.Mui-disabled, [aria-disabled="true"])']).toEqual({
      filter: 'brightness(0.92)',
    });
  });

  it('follows the direction it is given', () => {
    expect(createAppTheme('ltr').direction).toBe('ltr');
    expect(theme.direction).toBe('rtl');
  });
});
