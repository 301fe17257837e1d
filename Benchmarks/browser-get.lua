-- The fixture GET as a browser sends it: eight header fields besides Host (wrk sends Host alone).
-- What each field costs: Benchmarks/instructions.sh --lua Benchmarks/browser-get.lua /example/widgets
wrk.method = "GET"
wrk.path = "/example/widgets"
wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0"
wrk.headers["Accept"] = "application/json, text/plain, */*"
wrk.headers["Accept-Language"] = "en-GB,en;q=0.5"
wrk.headers["Accept-Encoding"] = "gzip, deflate, br"
wrk.headers["Referer"] = "http://127.0.0.1/app/"
wrk.headers["Sec-Fetch-Dest"] = "empty"
wrk.headers["Sec-Fetch-Mode"] = "cors"
wrk.headers["Cache-Control"] = "no-cache"
