print("karc")
