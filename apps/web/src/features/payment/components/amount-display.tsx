import { formatAmount } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Ltr } from '../../../lib/text-runs';

/** The sum with the shekel sign (SPEC § 9 amount display). */
export function AmountDisplay({ agorot }: { agorot: number }) {
  const { t } = useTranslation();
  return (
    <Box component="p" sx={{ m: 0 }}>
      <Typography component="span" color="textSecondary" sx={{ display: 'block' }}>
        {t('payment.amount')}
      </Typography>
      {/* Isolated left to right, so the sign stays before the number in Hebrew too: ₪1,250.50. */}
      <Typography component="span" sx={{ display: 'block', fontSize: '2rem', fontWeight: 700 }}>
        <Ltr>₪{formatAmount(agorot)}</Ltr>
      </Typography>
    </Box>
  );
}
