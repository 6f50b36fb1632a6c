// What the docs tell a user to write, read from the docs themselves, so the consumer fixtures build
// their apps with exactly that: the install line, the compiler settings, the Node 20 overrides and
// the Jest set-up. A doc that changes its snippets changes what the fixtures build.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const workspace = fileURLToPath(new URL('../..', import.meta.url));

/** The fenced blocks of one language in the section under `heading` (up to the next heading of its level). */
function blocks(file, heading, language) {
  const markdown = readFileSync(`${workspace}/${file}`, 'utf8');
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no section "${heading}"`);
  const level = heading.split(' ')[0];
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^${level} `, 'm'));
  const section = end < 0 ? rest : rest.slice(0, end);
  const found = [...section.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]);
  if (found.length === 0) throw new Error(`${file} "${heading}" has no \`\`\`${language} block`);
  return found;
}

/** docs/installation.md's compiler settings: the compilerOptions every fixture compiles with. */
export function documentedTsconfig() {
  return JSON.parse(blocks('docs/installation.md', '## Compiler settings', 'json')[0]).compilerOptions;
}

/** docs/installation.md's overrides for an install without engine warnings on Node 20. */
export function documentedOverrides() {
  return JSON.parse(blocks('docs/installation.md', '## Node 20: an install without engine warnings', 'json')[0]).overrides;
}

/** The packages the README's install lines name, in order (comments after # dropped). */
export function documentedInstall() {
  return blocks('README.md', '## Install', 'bash')[0]
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('npm install '))
    .flatMap((line) => line.slice('npm install '.length).split(/\s+/).filter(Boolean));
}

/**
 * docs/testing.md's Jest set-up for an ES-module ('esm') or CommonJS ('cjs') app: the files to write
 * (the Jest configuration and tsconfig.spec.json) and the test script.
 */
export function documentedJestConfig(kind) {
  const file = kind === 'esm' ? 'jest.config.js' : 'jest.config.cjs';
  const config = blocks('docs/testing.md', '## Setting up Jest', 'js').find((block) => block.startsWith(`// ${file} (`));
  if (!config) throw new Error(`docs/testing.md "## Setting up Jest" shows no ${file}`);
  const json = blocks('docs/testing.md', '## Setting up Jest', 'json').map((block) => JSON.parse(block));
  const specTsconfig = json.find((block) => block.extends);
  const { scripts } = json.find((block) => block.scripts);
  return { files: { [file]: config, 'tsconfig.spec.json': `${JSON.stringify(specTsconfig, null, 2)}\n` }, testScript: scripts.test };
}
