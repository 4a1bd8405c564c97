print("thrum: not built yet")
