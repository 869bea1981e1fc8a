"""Ways of running many searches: puzzle sets (:mod:`.batch`, ``atout batch``) and the search
processes that the batch runner and the server's pool both use (:mod:`.process`)."""
