-- The Feathers CRUD mix `make bench` runs against /feathers/people-paginated: in turn, a
-- create (with its own id), a get and a patch of a record created 40 steps earlier, a find with
-- a filter, and a remove of one created 80 steps earlier. bench.py creates r-100 … r0 before
-- each run, so every request finds what it names (r0 too: wrk spends the first request() call
-- before the run).
local counter = 0
local base = "/feathers/people-paginated"
local json = { ["Content-Type"] = "application/json" }

request = function()
  local n = math.floor(counter / 5)
  local step = counter % 5
  counter = counter + 1
  if step == 0 then
    return wrk.format("POST", base, json, string.format('{"id":"r%d","name":"n%d","age":%d}', n, n % 10, n % 90))
  elseif step == 1 then
    return wrk.format("GET", base .. "/r" .. (n - 40))
  elseif step == 2 then
    return wrk.format("PATCH", base .. "/r" .. (n - 40), json, '{"age":33}')
  elseif step == 3 then
    return wrk.format("GET", base .. "?name=n" .. (n % 10) .. "&$limit=5")
  end
  return wrk.format("DELETE", base .. "/r" .. (n - 80))
end
