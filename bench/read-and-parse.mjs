// The baseline of `check`: read each file named in a list and parse it with the yaml package, nothing more.
// Usage: node bench/read-and-parse.mjs LIST   (LIST: one path a line)
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

let documents = 0;
for (const path of readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean)) documents += parseAllDocuments(readFileSync(path, 'utf8')).length;
console.log(documents);
