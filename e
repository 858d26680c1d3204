error: unknown option '--inspect'
