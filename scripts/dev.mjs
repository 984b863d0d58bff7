// `npm run dev`: the API with reload on change, and Vite's dev servers (patient pages on :5173,
// the desk on :5174/desk/) proxying /api to it.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@marpe/api'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@marpe/web'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@marpe/desk'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) => c.on('exit', (code) => (process.exitCode ||= code ?? 0)));
