// The TextMate grammar (syntaxes/rec.tmLanguage.json) through VS Code's own
// tokenizer (vscode-textmate on vscode-oniguruma), on every .rec file of the
// repository: each character must get the scope a small hand-written
// scanner of the language (below, after grammar/Rec.g4's lexer) expects,
// and a few lines are checked token by token as well.
// Usage: node test/grammar.test.js [REPO_ROOT]
'use strict';
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const repo = path.resolve(process.argv[2] || path.join(__dirname, '..', '..', '..'));

// ---- the expected scopes: a scanner of the language -------------------------
const DECLARATIONS = new Set(['op', 'part', 'slot', 'fn', 'default', 'field', 'context', 'profile', 'kind', 'run', 'model']);
const VOCABULARY = new Set(['import', 'switches', 'layerparts', 'opvector']);
const CLAUSES = new Set(['switch', 'needs', 'comm', 'of', 'in', 'when', 'matches']);
const CONTROL = new Set(['if', 'else']);
const LOGICAL = new Set(['and', 'or', 'not']);
const CONSTANTS = new Set(['True', 'False', 'None']);
const OPERATORS = ['**', '//', '==', '!=', '<=', '>=', '+', '-', '*', '/', '%', '<', '>', '='];

const isWord = (c) => c !== undefined && /[A-Za-z0-9_]/.test(c);
const isStart = (c) => c !== undefined && /[A-Za-z_]/.test(c);
const isDigit = (c) => c !== undefined && /[0-9]/.test(c);

// One category per character of the line.
function expected(line) {
  const out = new Array(line.length).fill('plain');
  const mark = (from, to, what) => { for (let k = from; k < to; k++) out[k] = what; };
  let i = 0;
  let atStart = true;  // only blanks so far
  while (i < line.length) {
    const c = line[i];
    if (c === ' ' || c === '\t') { i++; continue; }
    const first = atStart;
    atStart = false;
    if (c === '#') { mark(i, line.length, 'comment'); break; }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < line.length && line[j] !== c) {
        if (line[j] === '\\') { if (j + 1 < line.length) { j += 2; continue; } break; }
        j++;
      }
      if (j < line.length && line[j] === c) j++;
      mark(i, j, 'string');
      i = j;
      continue;
    }
    if ((isDigit(c) || (c === '.' && isDigit(line[i + 1]))) && !isWord(line[i - 1])) {
      let j = i;
      while (j < line.length && /[0-9A-Za-z_.]/.test(line[j])) j++;
      if (/[eE]/.test(line[j - 1]) && /[+-]/.test(line[j] || '') && /[0-9_]/.test(line[j + 1] || '')) {
        j++;
        while (j < line.length && /[0-9_]/.test(line[j])) j++;
        if (/[jJ]/.test(line[j] || '')) j++;
      }
      mark(i, j, 'number');
      i = j;
      continue;
    }
    if (isStart(c)) {
      let j = i;
      while (isWord(line[j])) j++;
      const word = line.slice(i, j);
      if (first && DECLARATIONS.has(word)) {
        mark(i, j, 'keyword');
        let k = j;
        while (line[k] === ' ' || line[k] === '\t') k++;
        if (k > j && isStart(line[k])) {
          let e = k;
          while (isWord(line[e])) e++;
          mark(k, e, 'entity');
          j = e;
        }
      } else if (first && VOCABULARY.has(word)) mark(i, j, 'keyword');
      else if (CLAUSES.has(word)) mark(i, j, 'keyword');
      else if (CONTROL.has(word)) mark(i, j, 'control');
      else if (LOGICAL.has(word)) mark(i, j, 'logical');
      else if (CONSTANTS.has(word)) mark(i, j, 'constant');
      else mark(i, j, 'name');
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => line.startsWith(o, i));
    if (op) { mark(i, i + op.length, 'operator'); i += op.length; continue; }
    i++;  // brackets, commas, colons: no scope of their own
  }
  return out;
}

// ---- the grammar's scopes as categories ----------------------------------------
function category(scopes) {
  const has = (p) => scopes.some((s) => s.startsWith(p));
  if (has('comment')) return 'comment';
  if (has('string')) return 'string';
  if (has('constant.numeric')) return 'number';
  if (has('constant.language')) return 'constant';
  if (has('entity.name')) return 'entity';
  if (has('keyword.operator.logical')) return 'logical';
  if (has('keyword.operator')) return 'operator';
  if (has('keyword.control')) return 'control';
  if (has('keyword.other')) return 'keyword';
  if (has('variable.other')) return 'name';
  return 'plain';
}

function recFiles(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', '.git'].includes(entry.name) || entry.name.startsWith('build')) continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) recFiles(p, out);
    else if (entry.name.endsWith('.rec')) out.push(p);
  }
  return out;
}

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      if (scope !== 'source.rec') return null;
      const file = path.join(__dirname, '..', 'syntaxes', 'rec.tmLanguage.json');
      return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  return registry.loadGrammar('source.rec');
}

function tokenize(grammar, text) {
  let state = vsctm.INITIAL;
  return text.split(/\r?\n/).map((line) => {
    const r = grammar.tokenizeLine(line, state);
    state = r.ruleStack;
    return { line, tokens: r.tokens };
  });
}

// Hand-checked lines: [line, [[text, category], ...]] for its non-blank tokens.
const SAMPLES = [
  ['slot qkv in attention {', [['slot', 'keyword'], ['qkv', 'entity'], ['in', 'keyword'], ['attention', 'name'], ['{', 'plain']]],
  ['op attBMM switch attBMM needs attMM', [['op', 'keyword'], ['attBMM', 'entity'], ['switch', 'keyword'], ['attBMM', 'name'], ['needs', 'keyword'], ['attMM', 'name']]],
  ['    bytes = micro_factor * 1.5e+3 // t  # rec: allow W0101', [['bytes', 'name'], ['=', 'operator'], ['micro_factor', 'name'], ['*', 'operator'], ['1.5e+3', 'number'], ['//', 'operator'], ['t', 'name'], ['# rec: allow W0101', 'comment']]],
  ['field h : int | float, "elements", "hidden width"', [['field', 'keyword'], ['h', 'entity'], [':', 'plain'], ['int', 'name'], ['|', 'plain'], ['float', 'name'], [',', 'plain'], ['"elements"', 'string'], [',', 'plain'], ['"hidden width"', 'string']]],
  ['    x = 0 if dc_kv == 0 and not gmm else True', [['x', 'name'], ['=', 'operator'], ['0', 'number'], ['if', 'control'], ['dc_kv', 'name'], ['==', 'operator'], ['0', 'number'], ['and', 'logical'], ['not', 'logical'], ['gmm', 'name'], ['else', 'control'], ['True', 'constant']]],
];

function tokensOf(grammar, line) {
  const { tokens } = tokenize(grammar, line)[0];
  const out = [];
  for (const t of tokens) {
    const text = line.slice(t.startIndex, t.endIndex);
    if (text.trim() === '') continue;
    out.push([text.trim(), category(t.scopes)]);
  }
  return out;
}

// The manifest points at files that exist and parse, and the client loads
// as far as it can without VS Code.
function checkManifest() {
  const root = path.join(__dirname, '..');
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const lang = manifest.contributes.languages[0];
  const grammar = manifest.contributes.grammars[0];
  JSON.parse(fs.readFileSync(path.join(root, lang.configuration), 'utf8'));
  const raw = JSON.parse(fs.readFileSync(path.join(root, grammar.path), 'utf8'));
  const problems = [];
  if (lang.id !== 'rec' || grammar.language !== 'rec' || !lang.extensions.includes('.rec')) problems.push('language id or extension');
  if (raw.scopeName !== grammar.scopeName) problems.push(`scopeName ${raw.scopeName} != ${grammar.scopeName}`);
  // `main` is the esbuild bundle, made by `npm run bundle` (tests/lsp/vsix_test.sh
  // builds and loads it); here only that the bundle script writes what `main` names.
  const outfile = (manifest.scripts.bundle.match(/--outfile=(\S+)/) || [])[1];
  if (path.normalize(outfile || '') !== path.normalize(manifest.main)) problems.push(`main ${manifest.main} is not the bundle's output ${outfile}`);
  if (!fs.existsSync(path.join(root, 'extension.js'))) problems.push('no extension.js');
  require.resolve('vscode-languageclient/node');
  for (const p of problems) console.log('package.json: ' + p);
  return problems.length;
}

async function main() {
  const grammar = await loadGrammar();
  let failures = checkManifest();
  for (const [line, want] of SAMPLES) {
    const got = tokensOf(grammar, line);
    // Tokens may split a category's run (a comment's directive): merge runs.
    const merged = [];
    for (const [text, cat] of got) {
      const last = merged[merged.length - 1];
      if (last && last[1] === cat && (cat === 'comment' || cat === 'plain')) last[0] = line.slice(line.indexOf(last[0]), line.indexOf(text, line.indexOf(last[0]) + last[0].length) + text.length);
      else merged.push([text, cat]);
    }
    if (JSON.stringify(merged) !== JSON.stringify(want)) {
      failures++;
      console.log(`sample: ${line}\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(merged)}`);
    }
  }
  const files = recFiles(repo);
  let lines = 0;
  let chars = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    tokenize(grammar, text).forEach(({ line, tokens }, n) => {
      lines++;
      const want = expected(line);
      for (const t of tokens) {
        const cat = category(t.scopes);
        for (let k = t.startIndex; k < Math.min(t.endIndex, line.length); k++) {
          chars++;
          if (cat !== want[k] && !(want[k] === 'plain' && /\s/.test(line[k]))) {
            failures++;
            if (failures <= 20)
              console.log(`${path.relative(repo, file)}:${n + 1}:${k + 1}: \`${line.slice(t.startIndex, t.endIndex)}\` is ${cat} (${t.scopes.join(' ')}), expected ${want[k]}\n  ${line}`);
            break;
          }
        }
      }
    });
  }
  console.log(`grammar: ${SAMPLES.length} sample lines, ${files.length} .rec files, ${lines} lines, ${chars} characters; ${failures} failure(s)`);
  if (files.length < 5) { console.log('too few .rec files found under ' + repo); process.exit(1); }
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
