import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A desk page: its title in the tab and as the page's one h1, which takes focus when the page
 * opens, so a screen reader announces where a navigation led (the layout's skip link leads here).
 */
export function Page({
  title,
  actions,
  children,
  width = 'lg',
}: {
  title: string;
  /** Buttons beside the title (the page's main actions). */
  actions?: ReactNode;
  children: ReactNode;
  width?: 'md' | 'lg' | 'full';
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  const maxWidth = width === 'full' ? 'none' : width === 'md' ? 880 : 1280;
  return (
    <Box sx={{ maxWidth, mx: 'auto', width: '100%' }}>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 2 }}
      >
        <Typography variant="h1" ref={heading} tabIndex={-1}>
          {title}
        </Typography>
        {actions ? (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {actions}
          </Stack>
        ) : null}
      </Stack>
      {children}
    </Box>
  );
}
