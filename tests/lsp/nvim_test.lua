-- Run by nvim_test.sh: Neovim's client against `oprec lsp`, configured as a
-- user would with editors/nvim. Any failure quits with status 1.
local src, file = os.getenv('OPREC_SRC'), os.getenv('OPREC_FILE')
vim.opt.runtimepath:prepend(src .. '/editors/nvim')
vim.cmd('filetype plugin on')
vim.cmd('syntax on')

local function say(msg) io.stdout:write(msg .. '\n') end
local function fail(msg)
  say('FAIL: ' .. msg)
  vim.cmd('cquit 1')
end

local ok, err = pcall(function()
  require('oprec').setup({ cmd = { os.getenv('OPREC_BIN'), 'lsp' }, layer = src .. '/examples/llama2-7b.json' })
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  if vim.bo[buf].filetype ~= 'rec' then return fail('filetype is ' .. vim.bo[buf].filetype) end

  -- The diagnostic, where the misspelt `hf` is.
  local got = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  if not got then return fail('no diagnostics in 10 s') end
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local want_line, want_col
  for i, l in ipairs(lines) do
    local c = l:find('bytes_compute %* hf$')
    if c then want_line, want_col = i - 1, c - 1 + #'bytes_compute * ' end
  end
  local d = vim.diagnostic.get(buf)[1]
  say(string.format('diagnostic %d:%d %s %s', d.lnum + 1, d.col + 1, d.code or '?', d.message))
  if d.lnum ~= want_line or d.col ~= want_col then
    return fail(string.format('expected at %d:%d', want_line + 1, want_col + 1))
  end
  if d.code ~= 'W0101' then return fail('expected W0101') end

  -- Live bytes: without inlay hints (Neovim before 0.10), virtual text at the
  -- end of the slot's header line.
  if not (vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable) then
    local header
    for i, l in ipairs(lines) do
      if l:find('^slot qkv ') then header = i - 1 end
    end
    local text
    local shown = vim.wait(10000, function()
      for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, require('oprec').namespace, 0, -1, { details = true })) do
        if mark[2] == header and mark[4].virt_text then
          text = mark[4].virt_text[1][1]
          return true
        end
      end
      return false
    end, 50)
    if not shown then return fail('no live bytes at the end of line ' .. (header + 1) .. ' in 10 s') end
    say('live bytes at line end: ' .. lines[header + 1] .. '  ' .. text)
    if not text:find('20.25 MiB', 1, true) then return fail('the qkv slot is not 20.25 MiB on llama2-7b') end
  end

  local client = vim.lsp.get_active_clients({ bufnr = buf })[1] or vim.lsp.buf_get_clients(buf)[1]
  if client == nil then
    for _, c in pairs(vim.lsp.buf_get_clients(buf)) do client = c end
  end
  if client == nil then return fail('no client attached') end

  -- Hover the `h` of the qkv slot's proj formula: `s * b * h * bytes_compute`.
  local hl, hc
  for i, l in ipairs(lines) do
    local c = l:find('%(s %* b %* h %* bytes_compute')
    if c and not hl then hl, hc = i - 1, c - 1 + #'(s * b * ' end
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = hl, character = hc } }
  local res = client.request_sync('textDocument/hover', params, 5000, buf)
  if not res or res.err or not res.result then return fail('no hover: ' .. vim.inspect(res)) end
  local text = res.result.contents.value
  say('hover: ' .. text:gsub('\n', ' | '))
  if not text:find('hidden width', 1, true) then return fail('hover does not say what h is') end

  -- Format: the default is laid out again, nothing else changes.
  local fmt = client.request_sync('textDocument/formatting',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, options = { tabSize = 4, insertSpaces = true } }, 5000, buf)
  if not fmt or fmt.err then return fail('formatting failed: ' .. vim.inspect(fmt)) end
  vim.lsp.util.apply_text_edits(fmt.result, buf, 'utf-16')
  local after = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local found = false
  for _, l in ipairs(after) do
    if l == 'default n_qknorm = 0' then found = true end
  end
  if not found then return fail('the default was not formatted') end
  if #after ~= #lines then return fail('formatting changed the line count') end
  say('formatted: ok')
  client.stop()
  vim.wait(2000, function() return client.is_stopped() end, 50)
  vim.cmd('qall!')
end)
if not ok then fail(tostring(err)) end
