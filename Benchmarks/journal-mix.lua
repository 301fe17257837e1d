-- The journal's long run in `make bench`: a fixture GET, then a JSON POST with a body the
-- journal keeps, in turn, so a million requests fill the ring many times over.
local counter = 0
local json = { ["Content-Type"] = "application/json" }

request = function()
  counter = counter + 1
  if counter % 2 == 0 then
    return wrk.format("GET", "/example/widgets")
  end
  return wrk.format("POST", "/test/api/Hello", json,
    string.format('{"name":"request %d","padding":"%s"}', counter, string.rep("x", 160)))
end
