-- The Feathers CRUD mix `make bench` runs against /feathers/people-paginated: in turn, a
-- create (with its own id; the service's data schema takes one), a get and a patch of a record
-- created 40 steps earlier, a find with a filter, and a remove of one created 80 steps earlier.
-- bench.py creates ids 900 … 1000 before each run, so every request finds what it names (1000
-- too: wrk spends the first request() call before the run).
local counter = 0
local base = "/feathers/people-paginated"
local json = { ["Content-Type"] = "application/json" }

request = function()
  local n = math.floor(counter / 5)
  local step = counter % 5
  counter = counter + 1
  if step == 0 then
    return wrk.format("POST", base, json, string.format('{"id":%d,"name":"n%d","age":%d}', 1000 + n, n % 10, n % 90))
  elseif step == 1 then
    return wrk.format("GET", base .. "/" .. (960 + n))
  elseif step == 2 then
    return wrk.format("PATCH", base .. "/" .. (960 + n), json, '{"age":33}')
  elseif step == 3 then
    return wrk.format("GET", base .. "?name=n" .. (n % 10) .. "&$limit=5")
  end
  return wrk.format("DELETE", base .. "/" .. (920 + n))
end
