// Where a profile's time or bytes go, by package and by function: the summaries docs/performance.md
// quotes. Reads a `--cpu-prof` profile (.cpuprofile: self time) or a sampling heap profile
// (.heapprofile, from bench/allocation-profile.ts or --heap-prof: self bytes).
//
//   node --import tsx bench/profile-summary.ts <file>... [--top N, default 20]
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  samples: number[];
  timeDeltas: number[];
}
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children?: HeapNode[];
}
interface HeapProfile {
  head: HeapNode;
}

const args = process.argv.slice(2);
const topFlag = args.indexOf('--top');
const top = topFlag >= 0 ? Number(args[topFlag + 1]) : 20;
const files = args.filter((_, index) => topFlag < 0 || (index !== topFlag && index !== topFlag + 1));
if (files.length === 0 || !Number.isInteger(top) || top < 1) {
  process.stderr.write('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile|file.heapprofile>... [--top N]\n');
  process.exit(2);
}
const root = `file://${process.cwd()}/`;

/** The package a frame belongs to (node_modules/<name>), else the repository file, else what V8 calls it. */
function placeOf(frame: CallFrame): string {
  const url = frame.url.startsWith(root) ? frame.url.slice(root.length) : frame.url;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (packageMatch) return `package ${packageMatch[1]}`;
  return url === '' ? `(${frame.functionName || 'native'})` : url;
}

function tally(weights: Array<[CallFrame, number]>): { total: number; byPlace: Map<string, number>; byFunction: Map<string, number> } {
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [frame, weight] of weights) {
    total += weight;
    const place = placeOf(frame);
    byPlace.set(place, (byPlace.get(place) ?? 0) + weight);
    const name = `${frame.functionName || '(anonymous)'} ${place}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + weight);
  }
  return { total, byPlace, byFunction };
}

function print(title: string, unit: string, { total, byPlace, byFunction }: ReturnType<typeof tally>, scale: number): void {
  const lines = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, weight]) => `  ${((weight / total) * 100).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  process.stdout.write(`${title}: ${(total / scale).toFixed(1)} ${unit}\n-- by package or file\n${lines(byPlace)}\n-- by function\n${lines(byFunction)}\n`);
}

for (const file of files) {
  process.stdout.write(`== ${file}\n`);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile | HeapProfile;
  if ('head' in profile) {
    const weights: Array<[CallFrame, number]> = [];
    const stack: HeapNode[] = [profile.head];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      weights.push([node.callFrame, node.selfSize]);
      stack.push(...(node.children ?? []));
    }
    print('sampled bytes allocated', 'MB', tally(weights), 1e6);
  } else {
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    const weights: Array<[CallFrame, number]> = profile.samples.map((id, index) => [frames.get(id) as CallFrame, profile.timeDeltas[index] ?? 0]);
    print('sampled time', 'ms', tally(weights), 1000);
  }
}
