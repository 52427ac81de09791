-- Drives dist/server.js from Neovim's own LSP client (0.7 API: start_client + buf_attach_client).
-- Input from the environment, output as JSON to KR_RESULT; exits 0 only when every step ran.
local server = os.getenv('KR_SERVER')
local file = os.getenv('KR_FILE')
local result_path = os.getenv('KR_RESULT')
local fix_rule = os.getenv('KR_FIX_RULE')
local fix_title = os.getenv('KR_FIX_TITLE')
local hover_line = tonumber(os.getenv('KR_HOVER_LINE'))

local function code_of(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

local function snapshot(diagnostics)
  local out = {}
  for _, d in ipairs(diagnostics) do
    table.insert(out, {
      code = code_of(d), source = d.source, message = d.message, severity = d.severity,
      range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    })
  end
  return out
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'yaml'
  local client_id = vim.lsp.start_client({
    name = 'kube-resilience',
    cmd = { 'node', server, '--stdio' },
    root_dir = vim.fn.fnamemodify(file, ':p:h'),
    init_options = { settings = { cluster = 'demo' } },
  })
  assert(client_id, 'the language server did not start')
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  assert(vim.wait(15000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20), 'no diagnostics within 15 s')
  local result = { before = snapshot(vim.diagnostic.get(bufnr)) }

  local uri = vim.uri_from_bufnr(bufnr)
  local hover = client.request_sync('textDocument/hover', { textDocument = { uri = uri }, position = { line = hover_line, character = 0 } }, 5000, bufnr)
  assert(hover and hover.result, 'no hover answer')
  result.hover = hover.result.contents.value or vim.inspect(hover.result.contents)

  local target
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if code_of(d) == fix_rule then target = d end
  end
  assert(target, 'no ' .. fix_rule .. ' diagnostic')
  local lsp_range = { start = { line = target.lnum, character = target.col }, ['end'] = { line = target.end_lnum, character = target.end_col } }
  local params = {
    textDocument = { uri = uri },
    range = lsp_range,
    context = { diagnostics = { { range = lsp_range, message = target.message, severity = target.severity, source = target.source, code = code_of(target) } } },
  }
  local answer = client.request_sync('textDocument/codeAction', params, 5000, bufnr)
  assert(answer and answer.result, 'no code actions')
  result.actions = {}
  local chosen
  for _, action in ipairs(answer.result) do
    table.insert(result.actions, action.title)
    if action.title == fix_title then chosen = action end
  end
  assert(chosen and chosen.edit, 'no code action titled ' .. fix_title .. ' with an edit')
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  vim.cmd('write')
  local function gone()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if code_of(d) == fix_rule then return false end
    end
    return true
  end
  result.fixed_finding_gone = vim.wait(10000, gone, 20)
  -- Let the other files' re-validation settle before the last look.
  vim.wait(500)
  result.after = snapshot(vim.diagnostic.get(bufnr))
  vim.fn.writefile({ vim.fn.json_encode(result) }, result_path)
end

local ok, err = pcall(run)
if ok then
  vim.cmd('qa!')
else
  io.stderr:write('neovim-client.lua: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
