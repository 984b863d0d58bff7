import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageMenu } from '../../../lib/language-menu';

/** The pages before sign-in: the desk's name, the language menu, one card in the middle. */
export function SignedOutFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="header"
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          px: 2,
          py: 1,
        }}
      >
        <Typography component="p" sx={{ fontWeight: 700 }}>
          {t('app.name')}
        </Typography>
        <LanguageMenu />
      </Box>
      <Container component="main" maxWidth="xs" sx={{ py: { xs: 3, sm: 8 } }}>
        {children}
      </Container>
    </Box>
  );
}
