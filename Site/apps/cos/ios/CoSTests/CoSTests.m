#import <UIKit/UIKit.h>
#import <XCTest/XCTest.h>

@interface CoSTests : XCTestCase

@end

@implementation CoSTests

- (void)testAppLaunches
{
  XCTAssertNotNil([UIApplication sharedApplication]);
}

@end
