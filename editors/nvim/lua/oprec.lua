-- `oprec lsp` for Neovim's built-in client (0.7 and later): starts the
-- server for each `rec` buffer, one client per root folder.
--
--   require('oprec').setup({
--     cmd = { 'oprec', 'lsp' },          -- the server command
--     layer = 'examples/llama2-7b.json', -- live bytes' layer (else `# rec: layer PATH` in the file)
--   })
local M = {}

local defaults = { cmd = { 'oprec', 'lsp' }, layer = nil }

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
          -- Live bytes: inlay hints where Neovim has them (0.10), and the
          -- layer's parts as a code lens, refreshed as the text changes.
          if vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
            pcall(vim.lsp.inlay_hint.enable, true, { bufnr = b })
          end
          vim.api.nvim_create_autocmd({ 'BufEnter', 'TextChanged', 'InsertLeave' }, {
            buffer = b,
            callback = function() pcall(vim.lsp.codelens.refresh) end,
          })
          pcall(vim.lsp.codelens.refresh)
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
