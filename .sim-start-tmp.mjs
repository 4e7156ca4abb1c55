import { simulation } from '@simulacrum/github-api-simulator';
const s = await simulation().listen(0, '127.0.0.1');
console.log(s.port);
setTimeout(() => { s.ensureClose(); process.exit(0); }, 1500_000);
