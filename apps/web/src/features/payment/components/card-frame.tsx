import ArrowBackIcon from '../../../lib/icons/arrow-back';
import ArrowForwardIcon from '../../../lib/icons/arrow-forward';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The frame's height while its page cannot be measured: the provider's page is on its own origin,
 * so its height is unknown to us; this holds its card form and pay button at phone widths, so the
 * page scrolls rather than the frame.
 */
export const PROVIDER_FRAME_HEIGHT = 720;

/**
 * The height of the page in the frame when it is ours to read (the demo sandbox, on our origin);
 * null for the provider's page on another origin.
 */
function contentHeight(frame: HTMLIFrameElement): number | null {
  try {
    // The root's own box, not its scrollHeight, which is never less than the frame's height: a
    // frame taller than its page would never shrink.
    const root = frame.contentDocument?.documentElement;
    const measured = root ? Math.ceil(root.getBoundingClientRect().height) : 0;
    // The frame's own border is inside its height (border-box).
    return measured > 0 ? measured + frame.offsetHeight - frame.clientHeight : null;
  } catch {
    return null;
  }
}

/**
 * The provider's card form in a frame, and the way back to the payment details
 * (docs/product/payments.md#states).
 */
export function CardFrame({ src, onBack }: { src: string; onBack: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(PROVIDER_FRAME_HEIGHT);
  // "Back" points the way the page reads from: right in Hebrew.
  const BackIcon = theme.direction === 'rtl' ? ArrowForwardIcon : ArrowBackIcon;

  // The submit button that was focused is gone: keyboard and screen-reader users go on in the
  // frame. On a phone it opens below the details: the way back and the frame come into view.
  useEffect(() => {
    frameRef.current?.focus({ preventScroll: true });
    boxRef.current?.scrollIntoView?.({ block: 'start' });
  }, []);

  // A page we can read gets the frame's height, so its pay button is never scrolled inside it;
  // measured again when the frame's width changes (a phone turned), which rewraps its page.
  const fit = useCallback(() => {
    const frame = frameRef.current;
    const measured = frame && contentHeight(frame);
    if (measured) setHeight(measured);
  }, []);
  useEffect(() => {
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [fit]);

  return (
    <Box ref={boxRef} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Button
        onClick={onBack}
        startIcon={<BackIcon />}
        sx={{ alignSelf: 'flex-start', marginInlineStart: -1 }}
      >
        {t('payment.back')}
      </Button>
      <Box
        component="iframe"
        ref={frameRef}
        src={src}
        title={t('payment.frameTitle')}
        allow="payment"
        onLoad={fit}
        sx={{
          display: 'block',
          width: '100%',
          height,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
      />
    </Box>
  );
}
