import { createSvgIcon } from '@mui/material/SvgIcon';

export default createSvgIcon(<path d="M5 20h14v-2H5zm0-10h4v6h6v-6h4l-7-7z" />, 'Upload');
