import Strings
print("lookd-bench: ICU \(icuVersion)")
