" oprec's op records (.rec): see docs/lsp.md.
autocmd BufRead,BufNewFile *.rec setfiletype rec
