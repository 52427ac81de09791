import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeSpan, markdownText } from '../../server/src/explain/markdown-text';

describe('text from outside in Markdown', () => {
  it('markdownText escapes what makes links, images, HTML, code, emphasis and table cells, and leaves a name readable', () => {
    assert.equal(markdownText('web-api.v2'), 'web-api.v2');
    assert.equal(markdownText('![x](y) <b>*z*</b> a|b'), '\\!\\[x\\]\\(y\\) \\<b\\>\\*z\\*\\</b\\> a\\|b');
    assert.equal(markdownText('one\r\ntwo'), 'one two');
  });

  it('codeSpan fences past the longest run of backticks, with a space where one starts or ends the text (CommonMark strips one)', () => {
    assert.equal(codeSpan('prod'), '`prod`');
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('`a'), '`` `a ``');
    assert.equal(codeSpan('a`'), '`` a` ``');
    assert.equal(codeSpan(' a '), '`  a  `');
    assert.equal(codeSpan('x\ny'), '`x y`');
  });
});
