-- `oprec lsp` for Neovim's built-in client (0.7 and later): starts the
-- server for each `rec` buffer, one client per root folder.
--
--   require('oprec').setup({
--     cmd = { 'oprec', 'lsp' },          -- the server command
--     layer = 'examples/llama2-7b.json', -- live bytes' layer (else `# rec: layer PATH` in the file)
--   })
local M = {}

local defaults = { cmd = { 'oprec', 'lsp' }, layer = nil }

-- Where live bytes go as virtual text, in a Neovim without inlay hints.
M.namespace = vim.api.nvim_create_namespace('oprec_live_bytes')

local function label_text(label)
  if type(label) == 'string' then return label end
  local parts = {}
  for _, part in ipairs(label or {}) do parts[#parts + 1] = part.value end
  return table.concat(parts)
end

-- Neovim before 0.10 has no inlay hints: the server's hints for the buffer,
-- each line's joined and shown at the line's end.
local function show_hints(client, bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then return end
  local last = vim.api.nvim_buf_line_count(bufnr)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
  }
  client.request('textDocument/inlayHint', params, function(err, result)
    if err or not vim.api.nvim_buf_is_valid(bufnr) then return end
    vim.api.nvim_buf_clear_namespace(bufnr, M.namespace, 0, -1)
    local lines = {}
    for _, hint in ipairs(result or {}) do
      local line = hint.position.line
      lines[line] = lines[line] or {}
      table.insert(lines[line], vim.trim(label_text(hint.label)))
    end
    local count = vim.api.nvim_buf_line_count(bufnr)
    for line, labels in pairs(lines) do
      if line < count then
        vim.api.nvim_buf_set_extmark(bufnr, M.namespace, line, 0, {
          virt_text = { { table.concat(labels, '  '), 'Comment' } },
          virt_text_pos = 'eol',
        })
      end
    end
  end, bufnr)
end

-- The folder holding `.git` or `records/` above the file, else the file's own.
local function root_of(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local found = vim.fn.finddir('.git', dir .. ';')
  if found ~= '' then return vim.fn.fnamemodify(found, ':p:h:h') end
  return dir
end

function M.setup(opts)
  opts = vim.tbl_extend('force', defaults, opts or {})
  local clients = {}  -- root folder -> client id
  local settings = { oprec = { layer = opts.layer } }
  local function attach(bufnr)
    local root = root_of(vim.api.nvim_buf_get_name(bufnr))
    local id = clients[root]
    if id == nil or vim.lsp.get_client_by_id(id) == nil then
      id = vim.lsp.start_client({
        name = 'oprec',
        cmd = opts.cmd,
        root_dir = root,
        init_options = { layer = opts.layer },
        settings = settings,
        on_attach = function(client, b)
          -- Live bytes: inlay hints where Neovim has them (0.10), else
          -- virtual text at the end of the line; and the layer's parts as a
          -- code lens, refreshed as the text changes.
          local hints = vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable
          if hints then
            pcall(vim.lsp.inlay_hint.enable, true, { bufnr = b })
          end
          local timer = nil
          local function refresh()
            pcall(vim.lsp.codelens.refresh)
            if hints then return end
            -- After the change has reached the server (changes are sent debounced).
            if timer and not timer:is_closing() then
              timer:stop()
              timer:close()
            end
            timer = vim.defer_fn(function() show_hints(client, b) end, 300)
          end
          vim.api.nvim_create_autocmd({ 'BufEnter', 'TextChanged', 'InsertLeave' }, {
            buffer = b,
            callback = refresh,
          })
          refresh()
        end,
      })
      clients[root] = id
    end
    if id then vim.lsp.buf_attach_client(bufnr, id) end
  end
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'rec',
    callback = function(args) attach(args.buf) end,
  })
end

return M
