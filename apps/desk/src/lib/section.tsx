import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/**
 * A part of a desk page: a card named by its h2, so screen readers list it among the page's
 * regions. `id` is the heading's, for a table inside that the heading names too.
 */
export function Section({
  title,
  intro,
  id,
  children,
}: {
  title: string;
  intro?: ReactNode;
  id?: string;
  children: ReactNode;
}) {
  const ownId = useId();
  const headingId = id ?? ownId;
  return (
    <Paper component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 } }}>
      <Typography id={headingId} variant="h2" sx={{ mb: intro ? 1 : 2 }}>
        {title}
      </Typography>
      {intro ? (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {intro}
        </Typography>
      ) : null}
      {children}
    </Paper>
  );
}
