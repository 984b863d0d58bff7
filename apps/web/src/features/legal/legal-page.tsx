import ArrowBackIcon from '../../lib/icons/arrow-back';
import ArrowForwardIcon from '../../lib/icons/arrow-forward';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatUpdated, type LegalBlock, type LegalDocument } from './legal-document';

function Block({ block }: { block: LegalBlock }) {
  switch (block.kind) {
    case 'p':
      return <Typography sx={{ mb: 2 }}>{block.text}</Typography>;
    case 'ul':
      return (
        <Box component="ul" sx={{ mt: 0, mb: 2, paddingInlineStart: 3, typography: 'body1' }}>
          {block.items.map((item) => (
            <Box component="li" key={item} sx={{ mb: 0.5 }}>
              {item}
            </Box>
          ))}
        </Box>
      );
    case 'contact':
      return (
        <Typography sx={{ mb: 1 }}>
          {block.label}{' '}
          {/* bdi keeps phone numbers and addresses in their own direction inside Hebrew text. */}
          <bdi>
            <Link href={block.href}>{block.text}</Link>
          </bdi>
        </Typography>
      );
  }
}

/**
 * Legal texts are Hebrew only (product decision), so the article is always Hebrew and RTL. The
 * page is one centred reading column: on a wide screen the text neither hugs one edge nor runs
 * into lines too long to follow.
 */
export function LegalPage({ content }: { content: LegalDocument }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const BackIcon = theme.direction === 'rtl' ? ArrowForwardIcon : ArrowBackIcon;
  const hebrew = i18n.getFixedT('he');

  return (
    // Lines of at most 75 characters read comfortably: Hebrew letters are narrower than the '0' a
    // ch measures, so 58ch holds about 74 of them (checked in e2e/pages.e2e.ts).
    <Box sx={{ maxWidth: '58ch', mx: 'auto' }}>
      <Button
        component={RouterLink}
        to="/"
        startIcon={<BackIcon />}
        // Lines the label up with the text below despite the button's padding.
        sx={{ mb: 2, marginInlineStart: -1 }}
      >
        {t('common.back')}
      </Button>
      {i18n.language !== 'he' && (
        <Box sx={{ mb: 3, p: 1.5, borderRadius: 1, bgcolor: 'secondary.main' }}>
          <Typography>{t('legal.hebrewOnly')}</Typography>
          <Typography>
            {t('legal.updated', { date: formatUpdated(content.updated, i18n.language) })}
          </Typography>
        </Box>
      )}
      <Box component="article" lang="he" dir="rtl">
        <Typography component="h1" variant="h4" sx={{ mb: 1 }}>
          {content.title}
        </Typography>
        {/* Every legal page says when it last changed in the same words and format. */}
        <Typography color="textSecondary" sx={{ mb: 4 }}>
          {hebrew('legal.updated', { date: formatUpdated(content.updated, 'he') })}
        </Typography>
        {content.sections.map((section) => (
          <Box component="section" key={section.heading} sx={{ mb: 3 }}>
            <Typography component="h2" variant="h5" sx={{ mb: 1.5 }}>
              {section.heading}
            </Typography>
            {section.blocks.map((block, index) => (
              <Block key={index} block={block} />
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
