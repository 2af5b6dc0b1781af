print("healthaudit")
