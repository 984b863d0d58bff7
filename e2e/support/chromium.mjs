// Debian's Chromium as this machine runs it; shared by the e2e journeys and the benchmarks.
// The network flags keep Chromium from calling out of a machine that has no internet.
export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium';

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
